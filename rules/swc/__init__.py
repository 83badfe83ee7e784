"""Swords & Wizardry Completo (system id ``swc``, seed 000): the pure rules library."""
