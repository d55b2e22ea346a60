"""fleece: solver package."""
