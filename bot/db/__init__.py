"""Database: sqlmodel models, the async engine, and alembic migrations."""
