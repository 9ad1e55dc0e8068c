// Hardware's libgpiod backend implements the GPIO module's protocol; a module that imports Hardware
// sees the GPIO types as before (the Controls logic imports GPIO alone and stays free of C libraries).
@_exported import GPIO
