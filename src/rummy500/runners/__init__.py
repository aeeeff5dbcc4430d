"""Computer players against each other, many games at a time: simulations
(:mod:`.simulation`), duplicate tournaments (:mod:`.tournament`) and the sequential test
that stops one once it is decided (:mod:`.sprt`). A layer above the bots: the engine does
not know them."""
