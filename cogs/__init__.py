"""The Discord layer: one cog per capability, thin (parse, check, call a service, render)."""
