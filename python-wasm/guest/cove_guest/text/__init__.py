"""Text helpers every layer shares: patterns, escapes, option parsing, input reading.

The leaf layer: it imports nothing else from cove_guest.
"""
