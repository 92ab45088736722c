"""The Qt item models several views share, one per module, over core's answers.

They format only the cells asked for and never copy rows into widgets; filtering and sorting are
`core.filtering` over indices. `manifest` (Inputs), `kept` (Kept and refused keeps), `problems`,
`timeline`, and `rows` (the small flat tables' base). What they draw with is gui.look.
"""
