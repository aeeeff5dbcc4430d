# rummy500 serve in a container: online tables of 500 Rum (docs/deploy.md).
#
#   docker build -t rummy500 .
#   docker run -d -p 8500:8500 -v rummy500-tables:/data rummy500
#
# The start command creates the database's schema, or migrates it to this version's, before
# it listens (Alembic, under a lock on PostgreSQL: several processes may start together).
# Every setting can be given as an environment variable RUMMY500_<FLAG> (-e
# RUMMY500_ALLOWED_HOST=games.example.org); `docker run --rm rummy500 rummy500 serve --help`
# lists them. tests/test_deploy.py runs this file's CMD and HEALTHCHECK as they are written.

FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip wheel --no-cache-dir --disable-pip-version-check --no-deps --wheel-dir /wheels .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
COPY --from=build /wheels /wheels
# The wheel built above, by its file name (never a package of that name from elsewhere),
# and the [web] extra's dependencies from PyPI.
RUN wheel="$(ls /wheels/rummy500-*.whl)" \
    && pip install --no-cache-dir --disable-pip-version-check --root-user-action=ignore \
        "${wheel}[web]" \
    && rm -rf /wheels \
    && groupadd --system --gid 10001 rummy500 \
    && useradd --system --uid 10001 --gid rummy500 --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin rummy500 \
    && mkdir /data && chown rummy500:rummy500 /data && chmod 700 /data

# The tables live in /data (the SQLite file and its write-ahead log); keep it on a volume.
VOLUME ["/data"]
WORKDIR /data
USER 10001:10001

# One JSON object a line on standard error, for `docker logs` and log collectors.
ENV RUMMY500_LOG_FORMAT=json
EXPOSE 8500

# Alive: GET /healthz answers 200. No curl in the slim image, so Python's urllib; over
# HTTPS (certificate not checked: it is this container's own) when RUMMY500_CERTFILE is set.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, ssl, sys, urllib.request; tls = bool(os.environ.get('RUMMY500_CERTFILE')); context = ssl._create_unverified_context() if tls else None; url = ('https' if tls else 'http') + '://127.0.0.1:8500/healthz'; sys.exit(0 if urllib.request.urlopen(url, timeout=4, context=context).status == 200 else 1)"]

# SIGTERM (docker stop) finishes what is being written and closes every WebSocket with
# 1001; allow it 30 seconds (docker stop -t 30, stop_grace_period in compose).
STOPSIGNAL SIGTERM
CMD ["rummy500", "serve", "--host", "0.0.0.0", "--port", "8500", "--database", "sqlite:////data/tables.db"]
