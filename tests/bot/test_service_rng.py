"""Every service rolls with the one injected generator: the operating system's by default."""

from __future__ import annotations

import random

from bot.app import Services
from bot.services.play.abilities import AbilityService


def _generators(services: Services) -> dict[str, random.Random]:
    return {
        name: service.rng
        for name, service in vars(services).items()
        if isinstance(getattr(service, "rng", None), random.Random)
    }


async def test_services_share_the_systems_generator_by_default(engine) -> None:
    services = Services(engine)
    try:
        generators = _generators(services)
        assert {"abilities", "checks", "combat", "levelup", "rolls"} <= set(generators)
        assert {type(g) for g in generators.values()} == {random.SystemRandom}
        assert len({id(g) for g in generators.values()}) == 1
    finally:
        await services.compute.close()


async def test_an_injected_generator_reaches_every_service(engine) -> None:
    seeded = random.Random(7)
    services = Services(engine, rng=seeded)
    try:
        assert all(g is seeded for g in _generators(services).values())
    finally:
        await services.compute.close()


def test_ability_service_alone_defaults_to_the_systems_generator() -> None:
    service = AbilityService(None, None)  # type: ignore[arg-type]  # only the generator is read
    assert isinstance(service.rng, random.SystemRandom)
