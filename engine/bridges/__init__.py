"""Rule files in other frameworks' terms: action spaces, observations, OpenSpiel, PettingZoo."""
