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


def test_without_shard_settings_one_process_serves_every_guild():
    shards = load_config({}).shards
    assert (shards.count, shards.ids, shards.sharded) == (1, (0,), False)
    assert shards.owns(123 << 22) and shards.owns(None)


@pytest.mark.parametrize(
    ("env", "count", "ids"),
    [
        ({"SHARD_COUNT": "4"}, 4, (0, 1, 2, 3)),
        ({"SHARD_COUNT": "4", "SHARD_IDS": " 3, 1 "}, 4, (1, 3)),
        ({"SHARD_COUNT": "5", "SHARD_INDEX": "1", "SHARDS_PER_PROCESS": "2"}, 5, (2, 3)),
        ({"SHARD_COUNT": "5", "SHARD_INDEX": "2", "SHARDS_PER_PROCESS": "2"}, 5, (4,)),
        ({"SHARD_COUNT": "2", "SHARD_INDEX": "1"}, 2, (1,)),
    ],
)
def test_shard_settings_pick_this_processs_shards(env, count, ids):
    shards = load_config(env).shards
    assert (shards.count, shards.ids, shards.sharded) == (count, ids, True)
    for guild_shard in range(count):
        guild = ((77 * count) + guild_shard) << 22
        assert shards.shard_of(guild) == guild_shard
        assert shards.owns(guild) == (guild_shard in ids)


@pytest.mark.parametrize(
    ("env", "key"),
    [
        ({"SHARD_IDS": "0"}, "cli.config.shards_without_count"),
        ({"SHARD_INDEX": "0"}, "cli.config.shards_without_count"),
        ({"SHARD_COUNT": "0"}, "cli.config.bad_number"),
        ({"SHARD_COUNT": "99999"}, "cli.config.bad_number"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "cli.config.bad_shard_ids"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "cli.config.bad_shard_ids"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "uno"}, "cli.config.bad_shard_ids"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0", "SHARD_INDEX": "0"}, "cli.config.shards_both"),
        ({"SHARD_COUNT": "2", "SHARD_INDEX": "2"}, "cli.config.bad_shard_index"),
        ({"SHARD_COUNT": "2", "SHARDS_PER_PROCESS": "0"}, "cli.config.bad_number"),
        ({"ARBITRO_TIMER_LEASE_SECONDS": "1"}, "cli.config.bad_number"),
        ({"DATABASE_POOL_SIZE": "0"}, "cli.config.bad_number"),
        ({"DATABASE_MAX_OVERFLOW": "-1"}, "cli.config.bad_number"),
    ],
)
def test_bad_shard_settings_are_refused_in_both_languages(env, key):
    with pytest.raises(ConfigError) as caught:
        load_config(env)
    assert caught.value.key == key
    for locale in ("es", "en"):
        text = caught.value.render(locale)
        assert "{" not in text and "\n" not in text and len(text) > 20


def test_the_connection_budget_is_read_and_reaches_the_postgresql_pool():
    from bot.db.engine import create_engine

    config = load_config({"DATABASE_POOL_SIZE": "3", "DATABASE_MAX_OVERFLOW": "0"})
    assert (config.pool_size, config.max_overflow) == (3, 0)
    assert (load_config({}).pool_size, load_config({}).max_overflow) == (5, 10)
    engine = create_engine(
        "postgresql+asyncpg://u@127.0.0.1:1/x",
        pool_size=config.pool_size,
        max_overflow=config.max_overflow,
    )
    assert (engine.pool.size(), engine.pool._max_overflow) == (3, 0)


@pytest.mark.parametrize(
    ("given", "used"),
    [
        # Heroku and the hosts that copy it (the repository ships a Procfile)
        (
            "postgres://u:p@db.example:5432/arbitro",
            "postgresql+asyncpg://u:p@db.example:5432/arbitro",
        ),
        ("postgresql://u@db.example/arbitro", "postgresql+asyncpg://u@db.example/arbitro"),
        ("POSTGRES://u@h/db", "postgresql+asyncpg://u@h/db"),
        # libpq's sslmode is asyncpg's ssl (same values)
        ("postgres://u@h/db?sslmode=require", "postgresql+asyncpg://u@h/db?ssl=require"),
        (
            "postgres://u@h/db?application_name=a&sslmode=verify-full",
            "postgresql+asyncpg://u@h/db?application_name=a&ssl=verify-full",
        ),
        ("sqlite:///var/a.db", "sqlite+aiosqlite:///var/a.db"),
        # already the bot's form, or not a scheme it maps: as typed (the preflight refuses)
        (
            "postgresql+asyncpg://u@h/db?sslmode=require",
            "postgresql+asyncpg://u@h/db?sslmode=require",
        ),
        ("mysql://u@h/db", "mysql://u@h/db"),
        ("esto-no-es-una-url", "esto-no-es-una-url"),
    ],
)
def test_the_database_url_a_host_gives_names_the_async_driver(given, used):
    assert load_config({"DATABASE_URL": given}).database_url == used


def test_reading_messages_is_off_unless_the_deployment_asks():
    assert load_config({}).message_content is False
    for yes in ("1", "sí", "true", " YES "):
        assert load_config({"ARBITRO_MESSAGE_CONTENT": yes}).message_content is True
    for no in ("0", "no", "false", ""):
        assert load_config({"ARBITRO_MESSAGE_CONTENT": no}).message_content is False
    with pytest.raises(ConfigError) as caught:
        load_config({"ARBITRO_MESSAGE_CONTENT": "quizá"})
    assert caught.value.key == "cli.config.bad_flag"
    assert "ARBITRO_MESSAGE_CONTENT" in caught.value.render("es")
