# Tablekeeper: docker build -t tablekeeper . && docker run -e DISCORD_TOKEN=… -v tk:/data tablekeeper
# Register the commands once: docker run --rm -e DISCORD_TOKEN=… tablekeeper python -m bot sync
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The project as `pip install .` sees it (less what .dockerignore leaves out), installed like
# any package: every package pyproject.toml finds, with its migrations and translations, and
# every dependency (the PostgreSQL driver too: -e DATABASE_URL=postgresql://… just works).
# The bot then runs from the installed copy, never from the sources.
# The exact versions of requirements.lock first (the ones CI tests), then the project, which
# --no-deps keeps from pulling anything else; pip check says they fit together.
COPY . /tmp/tablekeeper
RUN pip install -r /tmp/tablekeeper/requirements.lock \
    && pip install --no-deps /tmp/tablekeeper \
    && pip check \
    && rm -rf /tmp/tablekeeper \
    && useradd --create-home --uid 10001 tablekeeper \
    && mkdir -p /data \
    && chown tablekeeper /data

USER tablekeeper
WORKDIR /home/tablekeeper
# The SQLite database (and its WAL files) live on the volume, so they survive new containers.
# (Set DATABASE_URL=postgresql://… to keep the tables in PostgreSQL instead.)
VOLUME /data
ENV DATABASE_URL=sqlite:////data/tablekeeper.db
# /healthz (200 when connected and the database answers) and /metrics, for the health check
# below and for Prometheus, on every interface of the container (HEALTH_HOST): its port is
# reached from outside it only where it is published. docker-compose.yml runs this image as the
# scaled setup.
ENV HEALTH_PORT=8080
ENV HEALTH_HOST=0.0.0.0
EXPOSE 8080
# The table's web page is off unless run with -e WEB_PORT=8000 -e PUBLIC_URL=https://…; when a
# reverse proxy stands in front of it (most hosts put one), also -e WEB_TRUSTED_PROXIES= its
# address or block, so the page's limits count each visitor, not the proxy.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-m", "bot", "health"]
# SIGTERM (docker stop) lets interactions in flight finish and closes the database: give it 10 s.
STOPSIGNAL SIGTERM

CMD ["python", "-m", "bot"]
