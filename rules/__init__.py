"""fleece: rules package."""
