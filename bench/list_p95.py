#!/usr/bin/env python3
# 200 sequential GETs on one keep-alive connection; prints p50/p95/max in ms.
# Usage: list_p95.py HOST PORT TOKEN PATH [N]
import http.client, sys, time, json
host, port, token, path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
n = int(sys.argv[5]) if len(sys.argv) > 5 else 200
c = http.client.HTTPConnection(host, port)
h = {"Authorization": "Bearer " + token}
times = []
for i in range(n):
    t = time.perf_counter()
    c.request("GET", path, headers=h)
    r = c.getresponse()
    body = r.read()
    times.append((time.perf_counter() - t) * 1000)
    if r.status != 200:
        print("status", r.status, body[:300]); sys.exit(1)
meta = json.loads(body)["meta"]
times.sort()
p = lambda q: times[min(len(times) - 1, int(round(q * len(times))) - 1)]
print(f"{path}: n={n} total={meta.get('total')} p50={p(0.5):.1f}ms p95={p(0.95):.1f}ms max={times[-1]:.1f}ms")
