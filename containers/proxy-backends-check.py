"""Compares the proxy's backends (proxy/default.vcl) with the stack: reads the resolved compose
configuration (`docker-compose -f docker-compose.yml config`) on stdin. Every backend must be a
service of the stack that exposes the backend's port, at the address the proxy's extra_hosts pins
its name to; every replica (a service named *-service-N) must be behind the proxy. Prints the
problems, one a line; exit status 1 when there is one. Run by containers/check.sh."""
import re
import sys

import yaml

stack = yaml.safe_load(sys.stdin)["services"]
vcl = open(sys.argv[1] if len(sys.argv) > 1 else "proxy/default.vcl").read()
pinned = dict(entry.split(":", 1) for entry in stack["proxy"].get("extra_hosts", []))
backends = re.findall(r'^backend (\w+) \{ \.host = "([^"]+)"; \.port = "(\d+)"', vcl, re.M)
problems = [] if backends else ["no backend found in the VCL"]
for name, host, port in backends:
    service = stack.get(host)
    if service is None:
        problems.append(f"backend {name}: no service {host} in docker-compose.yml")
        continue
    if port not in [str(p) for p in service.get("expose", [])]:
        problems.append(f"backend {name}: {host} does not expose port {port}")
    address = (service.get("networks") or {}).get("default", {}).get("ipv4_address")
    if pinned.get(host) != address:
        problems.append(f"backend {name}: the proxy pins {host} to {pinned.get(host)}, the service has {address}")
hosts = {host for _, host, _ in backends}
for host in pinned:
    if host not in hosts:
        problems.append(f"the proxy's extra_hosts names {host}, which no backend uses")
for service in stack:
    if re.search(r"-service-\d+$", service) and service not in hosts:
        problems.append(f"{service} is not behind the proxy (no backend names it)")
print("\n".join(problems))
sys.exit(1 if problems else 0)
