# Kibitz bot. The database lives on a volume: docker run -v kibitz-data:/data -e DISCORD_TOKEN=... kibitz
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    KIBITZ_DB=/data/kibitz.sqlite3 \
    KIBITZ_OUT=/data/out

# Debian's Stockfish plays standard games against the computer (bot/stockfish.py finds it in /usr/games)
RUN apt-get update && apt-get install -y --no-install-recommends stockfish && rm -rf /var/lib/apt/lists/*

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
# smoke test: the installed bot plays a few standard moves with Stockfish
RUN cd /tmp && python -c "import chess; from bot.stockfish import find_stockfish, stockfish_move; \
b = chess.Board(); path = find_stockfish(); assert path, 'no Stockfish found'; \
[b.push_uci(stockfish_move(path, b.fen(), 4, nodes=1000)) for _ in range(6)]; print('Stockfish played:', b.fen())"

USER kibitz
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
