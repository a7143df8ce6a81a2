import PajamaCore
import CPNG
import CChafa
