"""Agents: scripted (oracle, random, noisy oracle), VLMs through an OpenAI-compatible
endpoint with the Visual Diagnostic Assistant, and running them over live episodes."""
