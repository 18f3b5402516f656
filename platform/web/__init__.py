"""The request side's guards and rules: input refused at the door, rate limits, load shedding,
the Content-Security-Policy, server errors as 4xx/503, the site's own address, one-line names."""
