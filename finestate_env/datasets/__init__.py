"""Static instances: generating them from the live controls, and reading and writing
the project's, FineState-Bench's and ScreenSpot's file formats."""
