"""The rulebook's catalogs, one JSON file per language (read by chimera_dsl.tell.catalog)."""
