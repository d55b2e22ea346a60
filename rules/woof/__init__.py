"""Reference rules model of Woof!! (RULES.md section 2): pure Python, no solver imports."""
