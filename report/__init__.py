"""`make report`: rewrite the measured tables of README.md and docs/*.md
from build/*.json, between <!-- report:NAME --> markers (report.markers),
with one renderer per section (report.tables, report.speed)."""
