#!/bin/sh
# The edge's start: the certificate its HTTPS ports serve, then HAProxy (containers/README.md#https).
#   EDGE_TLS_CERTIFICATE  a PEM file holding the certificate chain and its private key (mount it).
#                         Without it, a self-signed certificate for localhost is made at the
#                         first start and kept in /certs, a volume, so that browsers told to
#                         trust it go on trusting it after a restart.
# Strict-Transport-Security is sent only with a certificate of your own (EDGE_HSTS_MAX_AGE).
set -eu
if [ -n "${EDGE_TLS_CERTIFICATE:-}" ]; then
  if [ ! -r "$EDGE_TLS_CERTIFICATE" ]; then
    echo "edge: EDGE_TLS_CERTIFICATE=$EDGE_TLS_CERTIFICATE is not a readable file (mount the PEM file, certificate chain and key, there)" >&2
    exit 1
  fi
  EDGE_TLS_PEM=$EDGE_TLS_CERTIFICATE
  EDGE_HSTS=true
else
  EDGE_TLS_PEM=/certs/self-signed.pem
  EDGE_HSTS=false
  if [ ! -s "$EDGE_TLS_PEM" ]; then
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 825 \
      -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 \
      -keyout /certs/key.pem -out /certs/certificate.pem 2>/dev/null
    cat /certs/certificate.pem /certs/key.pem >"$EDGE_TLS_PEM.new"
    rm /certs/key.pem
    mv "$EDGE_TLS_PEM.new" "$EDGE_TLS_PEM"
    echo "edge: made a self-signed certificate for localhost, kept in the volume: /certs/certificate.pem (containers/README.md#https says how to trust it)" >&2
  fi
fi
export EDGE_TLS_PEM EDGE_HSTS
exec haproxy -db -f /usr/local/etc/haproxy/haproxy.cfg
