"""Game formats (anticipation, duplicate) built on the engine; each reports its decisions as journal events."""
