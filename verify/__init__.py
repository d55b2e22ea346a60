"""fleece: verify package."""
