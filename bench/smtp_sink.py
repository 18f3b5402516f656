#!/usr/bin/env python
"""A local SMTP server for benchmarks, in a process of its own (as a real MTA would be):
takes every message and appends its X-Spieltisch-Key header to a file, one line each.

    .venv/bin/python bench/smtp_sink.py PORT KEYFILE
"""
import sys
import time

from aiosmtpd.controller import Controller


class KeySink:
    def __init__(self, path: str):
        self.out = open(path, "a", buffering=1)  # line-buffered: the bench counts lines as they come

    async def handle_DATA(self, server, session, envelope):
        key = next((line.split(b":", 1)[1].strip().decode() for line in envelope.content.splitlines()
                    if line.lower().startswith(b"x-spieltisch-key:")), "?")
        self.out.write(key + "\n")
        return "250 OK"


def main() -> None:
    port, path = int(sys.argv[1]), sys.argv[2]
    controller = Controller(KeySink(path), hostname="127.0.0.1", port=port)
    controller.start()
    print("ready", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
