"""The web app: arbiter console, projection screen, players' phones, results and a JSON API over the journal."""
