"""Text readers shared across Prov: companies, filings, periods."""
