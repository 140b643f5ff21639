"""The one set of text readers shared across Prov (pure functions, no I/O):

- periods.py    years and fiscal years named in text, a query's held years, period labels, halves and quarters
- dates.py      dates in any written form, and which of a sentence's dates a text does not state; month names
- units.py      the one vocabulary of scales and currencies; declared units ('(€ millions)', 'Millions of yen');
                the scale and currency a question asks
- figures.py    figures with currency, scale and unit; table cells; the units labels and tables declare
- statements.py statement tables as pypdf extracts them, and totals stated in sentences
- companies.py  the known companies a text names (the one matcher of routing, search and memory)
- names.py      company-like names a question writes, held or not
- identity.py   filing identity from names and cover pages; normalize_company
- sentences.py  sentence splitters (evidence, answers, plain), joined lists, readable tables, table cells;
                sentences no answer quotes (instructions to a model, boilerplate)
- questions.py  what a question asks (the question proper, a figure, a measure, a person) and whether a
                sentence answers it
- terms.py      a question's topic terms and a sentence's support for them
- followups.py  the follow-up and referent detector (conversation and router)
"""
