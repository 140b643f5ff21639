"""The one set of text readers shared across Prov (pure functions, no I/O):

- periods.py    years and fiscal years named in text, a query's held years, period labels, halves and quarters
- figures.py    figures with currency, scale and unit; table cells; declared units and scales
- sentences.py  sentence splitters (evidence, answers, plain), joined lists, readable tables, table cells
- dates.py      dates in any written form, and which of a sentence's dates a text does not state
- followups.py  the follow-up and referent detector (conversation and router)
- identity.py   filing identity from names and cover pages; normalize_company
- statements.py statement tables as pypdf extracts them
"""
