"""Game review (``rummy500 review``): each decision of a game judged by ``mcts``'s search
from what its seat could see (:mod:`.judge`), labelled (:mod:`.labels`), told in words
(:mod:`.words`), a whole game at a time in worker processes (:mod:`.game`)."""
