"""Facts for calculation: figures read from evidence, the vocabulary of measures, and which figures a question uses.

- readers.py    `extract_figures(evidence)` and its readers: tables, sentences, growth sentences, statements
                (app/text/statements.py), totals stated in sentences; `statement_unit`
- measures.py   one measure by its names ('Net sales' is revenue: SAME_MEASURE), the words of a company total
                (TOTAL_WORDS, `is_company_total`), `measure_words`
- selection.py  which figures a question uses: `most_relevant` (what the calculator is shown), the user's own
                figures in place of the documents' (`apply_user_figures`)

The supervisor's `prepare_calculation` node (nodes/figures.py) calls them. Pure functions, no I/O.
"""
