import Other
