import Heading
