"""The offline provider's synthesizer: an extractive composer that writes the answer from what the prompt holds
(the calculation results, the verified claims of the retrieval subgraph, the news, the user's own figures), each
sentence citing its blocks, as an analyst would: the figure asked for first, with its period and unit (a table
row stated as the figure it holds for the year asked, never pasted), a comparison as which side is higher and by
how much, then how a result was computed; certifications, safe harbours and contents lines are never quoted.

| file        | what it writes                                                                               |
|-------------|----------------------------------------------------------------------------------------------|
| answer.py   | `OfflineComposer` (the Synthesizer role), `compose_offline`: the answer, in order; the user's |
|             | standing instructions and stated figures                                                     |
| results.py  | a calculation's result: the lead sentence, then how it was computed                          |
| claims.py   | the verified claims as sentences; a table row stated as the figure it holds                  |
| news.py     | the news item sentences that bear on the question, newest first                              |
| wording.py  | figures as a report writes them, in the scale a question asks; subjects; citation markers    |
"""

from app.models.providers.offline.composer.answer import OfflineComposer, compose_offline

__all__ = ["OfflineComposer", "compose_offline"]
