from __future__ import annotations

import pytest

from bot.config import ConfigError, load_config


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
