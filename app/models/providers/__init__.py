"""Model providers. Each is one module with `build(settings) -> ModelSet` (app/models/__init__.py lists them)."""
