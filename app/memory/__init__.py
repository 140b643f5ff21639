"""Memory: the answer cache now; typed memory records come with the memory issue."""
