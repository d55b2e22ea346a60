"""Ulvtafl, the Scandinavian fox-and-geese game (docs/rules.md section 3, U1-U10): the 33-point
cross, the setups, legal moves with compulsory capture chains, U10's end checks, U8's text
formats, records and board pictures.

Imports: fleece.rules.
"""
