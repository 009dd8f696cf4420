#!/usr/bin/env python3
"""A local receiver for bench/deliveries.sh: answers every POST at once (200, a JSON id) and
keeps, per path, how many requests came, the first and last arrival, and the most connections
open at once. Prints its port on the first line of standard output; on SIGTERM writes the counts
as JSON to the file named by its one argument, and exits.

Usage: bench/receiver.py COUNTS.json
"""
import asyncio
import json
import signal
import sys
import time

stats = {}


def path_stats(path):
    return stats.setdefault(path, {"requests": 0, "first": None, "last": None, "open": 0, "most_open": 0})


async def handle(reader, writer):
    counted = None
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            request_line, *lines = head.decode("latin-1").split("\r\n")
            path = request_line.split(" ")[1].split("?")[0]
            length = 0
            close = False
            for line in lines:
                name, _, value = line.partition(":")
                if name.lower() == "content-length":
                    length = int(value.strip())
                elif name.lower() == "connection" and value.strip().lower() == "close":
                    close = True
            s = path_stats(path)
            if counted is None:
                counted = s
                s["open"] += 1
                s["most_open"] = max(s["most_open"], s["open"])
            await reader.readexactly(length)
            now = time.monotonic()
            s["requests"] += 1
            s["first"] = now if s["first"] is None else s["first"]
            s["last"] = now
            body = b'{"id":"msg_%d"}' % s["requests"]
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n%s\r\n%s"
                         % (len(body), b"Connection: close\r\n" if close else b"", body))
            await writer.drain()
            if close:
                break
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        if counted is not None:
            counted["open"] -= 1
        writer.close()


async def main(out):
    server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=1024)
    print(server.sockets[0].getsockname()[1], flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    server.close()
    for s in stats.values():
        span = (s["last"] - s["first"]) if s["requests"] > 1 else 0.0
        s["seconds"] = round(span, 3)
        s["per_second"] = round((s["requests"] - 1) / span, 1) if span > 0 else None
        del s["first"], s["last"], s["open"]
    with open(out, "w") as f:
        json.dump(stats, f, indent=1)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
