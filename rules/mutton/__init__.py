"""Reference rules model of Mutton (RULES.md section 1): pure Python, no solver imports."""
