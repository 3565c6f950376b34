"""Small pieces of the Discord layer that need no Discord."""
from bot.config import load
from bot.discord_app import DEFAULT_API_BASE, DiscordConfig
from bot.tree import split_content


def test_config_reads_the_environment(tmp_path):
    nothing = load({}, dotenv=tmp_path / "none")
    assert DiscordConfig.from_app_config(nothing) == DiscordConfig(DEFAULT_API_BASE, None)
    cfg = load({"DISCORD_API_BASE": "http://127.0.0.1:9/api/v10/", "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/"},
               dotenv=tmp_path / "none")
    assert DiscordConfig.from_app_config(cfg) == DiscordConfig("http://127.0.0.1:9/api/v10", "ws://127.0.0.1:9/")


def test_dotenv_supplies_the_token_and_the_environment_wins(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text("# secrets\nDISCORD_TOKEN='from-file'\nexport KIBITZ_DB=/tmp/x.sqlite3\n")
    assert load({}, dotenv=dotenv).token == "from-file"
    assert load({}, dotenv=dotenv).db_path == "/tmp/x.sqlite3"
    assert load({"DISCORD_TOKEN": "from-env"}, dotenv=dotenv).token == "from-env"


def test_long_text_is_split_at_line_breaks():
    text = "\n".join(f"line {i:04d} " + "x" * 90 for i in range(60))
    pieces = split_content(text)
    assert all(len(p) <= 2000 for p in pieces) and len(pieces) > 1
    assert "\n".join(pieces) == text
    assert split_content("") == [] and split_content("x" * 4001) == ["x" * 2000, "x" * 2000, "x"]
