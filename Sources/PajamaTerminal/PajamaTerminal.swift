import PajamaCore
import CNcursesw
