"""What the naipes command does: play, tournaments, competitions, scenarios, schemas."""
