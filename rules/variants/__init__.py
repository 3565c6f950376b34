"""One module per variant or family; each exports VARIANT (or VARIANTS). Discovered by rules.registry."""
