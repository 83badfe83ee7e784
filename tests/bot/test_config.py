from __future__ import annotations

import pytest

from bot.config import ConfigError, env_file_problem, load_config


def test_defaults_work_on_a_fresh_clone():
    config = load_config({})
    assert config.token is None
    assert config.database_url.startswith("sqlite+aiosqlite:///")
    assert config.database_url.endswith("var/arbitro.db")
    assert config.dev_guild_id is None
    assert config.default_locale == "es"


def test_values_are_read_and_normalised():
    config = load_config(
        {
            "DISCORD_TOKEN": " abc ",
            "DEV_GUILD_ID": "123",
            "LOG_LEVEL": "debug",
            "ARBITRO_DEFAULT_LOCALE": "en-US",
        }
    )
    assert config.token == "abc"
    assert config.dev_guild_id == 123
    assert config.log_level == "DEBUG"
    assert config.default_locale == "en"


@pytest.mark.parametrize("env", [{"DEV_GUILD_ID": "mesa"}, {"ARBITRO_DEFAULT_LOCALE": "fr"}])
def test_bad_values_are_refused_with_a_message(env):
    with pytest.raises(ConfigError):
        load_config(env)


def test_retention_days_default_and_range():
    assert load_config({}).retention_days == 30
    assert load_config({"ARBITRO_RETENTION_DAYS": "0"}).retention_days == 0
    assert load_config({"ARBITRO_RETENTION_DAYS": " 90 "}).retention_days == 90
    for bad in ("-1", "3651", "treinta", "1.5"):
        with pytest.raises(ConfigError) as caught:
            load_config({"ARBITRO_RETENTION_DAYS": bad})
        assert caught.value.key == "cli.config.bad_retention"


@pytest.mark.parametrize("locale", ["es", "en"])
def test_config_errors_are_translated_sentences(locale):
    with pytest.raises(ConfigError) as caught:
        load_config({"DEV_GUILD_ID": "mesa"})
    text = caught.value.render(locale)
    assert "DEV_GUILD_ID" in text and "mesa" in text and "{" not in text


def test_the_token_never_shows_in_repr_or_str():
    config = load_config(
        {"DISCORD_TOKEN": "MTIz.secreto.XYZ", "DATABASE_URL": "postgresql+asyncpg://u:clave@h/db"}
    )
    for text in (repr(config), str(config), f"{config}", repr([config])):
        assert "secreto" not in text
        assert "clave" not in text
        assert "token='***'" in text
    assert "token=None" in repr(load_config({}))


def test_env_file_readable_by_others_is_detected(tmp_path):
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=x\n")
    env.chmod(0o644)
    assert env_file_problem(env)
    env.chmod(0o600)
    assert not env_file_problem(env)
    assert not env_file_problem(tmp_path / "missing.env")


def test_start_warns_in_the_configured_language_when_env_is_readable(tmp_path, monkeypatch, caplog):
    from bot import __main__ as entry
    from bot import config as settings

    env = tmp_path / ".env"
    env.write_text("LOG_LEVEL=INFO\n")
    env.chmod(0o640)
    monkeypatch.setattr(settings, "ENV_FILE", env)
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'a.db'}")
    monkeypatch.setenv("ARBITRO_DEFAULT_LOCALE", "en")
    with caplog.at_level("WARNING"):
        assert entry.main(["migrate"]) == 0
    assert f"chmod 600 {env}" in caplog.text
    assert "readable by other users" in caplog.text
