"""The online table's network code on the client's side: the protocol's versions and how a
client keeps a seat's state from its frames (:mod:`.protocol`), and a Python client of
``rummy500 serve`` (:mod:`.client`). Above the engine, below the front ends that use it
(the server, the terminal's online seat, the command line)."""
