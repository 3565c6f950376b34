"""Kibitz bot: service layer (no Discord), stores, and the Discord and console front ends."""
