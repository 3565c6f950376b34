"""Discord's limits, in one place (Discord's API reference: messages, embeds, components,
application commands). Code that cuts or checks a length names one of these."""

MAX_CONTENT = 2000         # characters in a message's content
MAX_EMBED_TITLE = 256      # characters in an embed's title
MAX_EMBED_TEXT = 4096      # characters in an embed's description
MAX_EMBED_TOTAL = 6000     # characters over all embeds of one message, titles included
MAX_ALT = 1024             # characters in an attachment's description (its alt text)
MAX_NONCE = 25             # characters in a message's nonce
MAX_CHOICES = 25           # autocomplete choices in one answer
MAX_CHOICE_NAME = 100      # characters in a choice's name, and in a string choice's value
MAX_OPTION = 100           # characters in a string option (the `max_length` every one declares)
MAX_INTEGER = 2**53 - 1    # the largest integer option Discord takes
MAX_CUSTOM_ID = 100        # characters in a component's custom_id
MAX_BUTTON_LABEL = 80      # characters in a button's label
MAX_SELECT_OPTIONS = 25    # options in one select menu
MAX_SELECT_TEXT = 100      # characters in a select option's label, value or description
MAX_PLACEHOLDER = 150      # characters in a select menu's placeholder
MAX_CHANNEL_NAME = 100     # characters in a channel's or thread's name
