# Tablekeeper: docker build -t tablekeeper . && docker run -e DISCORD_TOKEN=… -v tk:/data tablekeeper
# Register the commands once: docker run --rm -e DISCORD_TOKEN=… tablekeeper python -m bot sync
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY rules ./rules
COPY table ./table
# With the PostgreSQL driver: -e DATABASE_URL=postgresql://… works without a rebuild.
RUN pip install ".[postgres]" \
    && useradd --create-home --uid 10001 tablekeeper \
    && mkdir -p /data \
    && chown tablekeeper /data

USER tablekeeper
# The SQLite database (and its WAL files) live on the volume, so they survive new containers.
# (Set DATABASE_URL=postgresql://… to keep the tables in PostgreSQL instead.)
VOLUME /data
ENV DATABASE_URL=sqlite:////data/tablekeeper.db

CMD ["python", "-m", "bot"]
