"""Structured logs: one JSON object a line, naming the node, and the table and
hand a line is about, so a log store can follow one table or one hand across nodes.

A log call says what it is about with ``extra``:
``log.error("storing the hand failed", extra={"table": "t1", "hand": 12})``. A line logged
while an HTTP request or a WebSocket connection is handled names it too (``request``,
``connection``: server/ops/request_ids.py), taken from the context the line was logged in.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import queue
import socket
from contextvars import ContextVar
from datetime import UTC, datetime
from logging.handlers import QueueHandler, QueueListener
from typing import Any

# What a line may be about (``extra``): a table, a hand (its number and id), the accounts
# seated in it and the chips each won or lost, a connection's account and address.
FIELDS = (
    "table",
    "hand",
    "hand_id",
    "accounts",
    "chips",
    "account",
    "address",
    "cancelled",
    "request",
    "connection",
)
ROOM_LOGGERS = ("pokerroom", "uvicorn")
# The HTTP request or WebSocket connection being handled (server/ops/request_ids.py sets them):
# each record made meanwhile is stamped with it, however the line is formatted later.
REQUEST: ContextVar[str | None] = ContextVar("pokerroom_request", default=None)
CONNECTION: ContextVar[str | None] = ContextVar("pokerroom_connection", default=None)
_stamping: list[bool] = []  # the record factory is wrapped once a process


def stamp_records() -> None:
    """Every log record made from now on carries the request and connection being handled,
    when there is one (a call's ``extra`` never names them). Idempotent."""
    if _stamping:
        return
    _stamping.append(True)
    make = logging.getLogRecordFactory()

    def stamped(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        request, connection = REQUEST.get(), CONNECTION.get()
        if request is not None:
            record.request = request
        if connection is not None:
            record.connection = connection
        return record

    logging.setLogRecordFactory(stamped)


def node_id() -> str:
    """This node's name: the setting POKERROOM_NODE_ID, else host and process."""
    return os.environ.get("POKERROOM_NODE_ID") or f"{socket.gethostname()}-{os.getpid()}"


class JsonFormatter(logging.Formatter):
    """A record as one JSON line: time, level, logger, message, node, and the table and
    hand it is about when the call named them; an exception's traceback as ``error``."""

    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "node": self.node,
        }
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


def configure(node: str, *, level: int = logging.INFO) -> logging.Handler:
    """The room's loggers write JSON lines to stderr (``pokerroom serve``), from a thread of
    their own: a slow reader of stderr holds up that thread, never the tables' event loop
    (S-ISOLATE-1). Each line is made where it is logged; only the write waits."""
    writer = logging.StreamHandler()
    writer.setFormatter(logging.Formatter("%(message)s"))
    lines: queue.SimpleQueue[logging.LogRecord] = queue.SimpleQueue()
    handler = QueueHandler(lines)
    handler.setFormatter(JsonFormatter(node))
    listener = QueueListener(lines, writer)
    listener.start()
    atexit.register(listener.stop)  # the lines still queued are written before exit
    for name in ROOM_LOGGERS:
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.setLevel(level)
        logger.propagate = False
    return handler
