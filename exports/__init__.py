"""Export files: the JSON document `/export` writes (signed), and `/import`'s reading of one
(checked, earlier versions upgraded) into what the store writes. No database, no Discord."""
