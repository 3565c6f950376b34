# Kibitz bot. The database lives on a volume: docker run -v kibitz-data:/data -e DISCORD_TOKEN=... kibitz
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    KIBITZ_DB=/data/kibitz.sqlite3 \
    KIBITZ_OUT=/data/out

WORKDIR /app
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY data ./data
RUN pip install --no-cache-dir ".[postgres]" \
    && useradd --create-home --uid 10001 kibitz \
    && mkdir -p /data && chown kibitz /data

USER kibitz
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
