"""The admin's tools behind `python -m bot health | copy-db | backup | import`: each ends with
exit code 0, or 1 and one clear line on stderr (never a traceback, never a password)."""

from __future__ import annotations

import argparse
import asyncio
import sys


class ToolError(Exception):
    """str(error) is the one line the admin reads."""


def run_tool(args: argparse.Namespace) -> int:
    try:
        if args.command == "health":
            from bot.tools.health import check_health

            print(check_health(args.port))
        elif args.command == "copy-db":
            from bot.tools.copydb import copy_db

            print(asyncio.run(copy_db(args.source, args.target)))
        elif args.command == "backup":
            from bot.tools.backup import backup

            print(backup(args.path, args.database))
        elif args.command == "import":
            from bot.tools.importing import import_file

            line = import_file(
                args.file,
                args.channel,
                args.guild,
                replace=args.replace,
                actor_id=args.actor,
                database_url=args.database,
            )
            print(asyncio.run(line))
    except ToolError as error:
        print(error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("Stopped; nothing was written to the target", file=sys.stderr)
        return 1
    return 0
