import PajamaCore
import CSndfile
import CPulse
