"""Table ids and seat tokens: random, URL-safe, checked for their form, and a token as the
database keeps it (hashed).

>>> len(new_token()) >= 22 and new_token() != new_token()
True
>>> valid_id(new_table_id()), valid_id("../etc"), valid_token(None)
(True, False, False)
"""

from __future__ import annotations

import hashlib
import re
import secrets

TOKEN_BYTES = 32
"""Seat tokens carry 256 random bits."""
TABLE_ID_BYTES = 18
"""Table ids carry 144 random bits (the id is the invitation)."""
TOKEN_LIMIT = 128
"""The longest text taken for a token."""
_ID_FORM = re.compile(r"[A-Za-z0-9_-]{1,64}")
_TOKEN_FORM = re.compile(rf"[A-Za-z0-9_-]{{1,{TOKEN_LIMIT}}}")


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_table_id() -> str:
    return secrets.token_urlsafe(TABLE_ID_BYTES)


def valid_id(table_id: str) -> bool:
    """Whether ``table_id`` has the form of a table id (random URL-safe text)."""
    return _ID_FORM.fullmatch(table_id) is not None


def valid_token(token: object) -> bool:
    """Whether ``token`` has the form of a seat token (random URL-safe text)."""
    return isinstance(token, str) and _TOKEN_FORM.fullmatch(token) is not None


def token_hash(token: str) -> str:
    """What the database keeps of a token. The token is 256 random bits, so a fast hash is
    as strong as a slow one here: no guessing can go through the space."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


__all__ = ["TABLE_ID_BYTES", "TOKEN_BYTES", "TOKEN_LIMIT", "new_table_id", "new_token",
           "token_hash", "valid_id", "valid_token"]
