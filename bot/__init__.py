"""Árbitro's process: configuration, database, services, message catalogue, the Discord client."""
